# src/render: (filled by its issue)
