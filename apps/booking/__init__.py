"""The booking site: stays and flights on one reservation core (see models.py)."""
