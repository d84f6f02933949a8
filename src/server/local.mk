# src/server: (filled by its issue)
