# src/mail: (filled by its issue)
