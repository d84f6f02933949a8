-- 013-reserved.sql -- an empty step: the number is another change's, and
-- this one keeps the sequence whole until it comes (replace it then).
SELECT 1;
