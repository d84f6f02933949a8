# src/daemon: (filled by its issue)
