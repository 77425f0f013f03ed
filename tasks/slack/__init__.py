"""Slack task templates."""
