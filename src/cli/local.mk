# src/cli: (filled by its issue)
