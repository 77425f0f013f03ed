"""The Slack-like chat clone: channels, DMs, threads, reactions, pins, search."""
