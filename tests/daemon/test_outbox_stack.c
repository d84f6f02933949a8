/* placeholder while the stack test is written */
int main(void) { return 77; }
