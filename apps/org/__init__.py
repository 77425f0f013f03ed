"""The org directory every app shares: people and teams."""
