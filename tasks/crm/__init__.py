"""CRM task templates."""
