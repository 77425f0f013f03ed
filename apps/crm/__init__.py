"""The Salesforce-like CRM clone: accounts, contacts, leads, opportunities, activities, cases."""
