"""Database work of the tournaments app. Views, API views and tasks call these; they stay thin."""
