"""Cross-app task templates: work that spans the chat, the directory and the CRM."""
