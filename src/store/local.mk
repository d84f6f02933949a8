# src/store: (filled by its issue)
