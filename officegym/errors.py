"""The one exception hierarchy of officegym.

    OfficeGymError            base of everything raised on purpose
    ├── NotFound              the thing named does not exist (or is invisible to the actor)
    ├── Forbidden             it exists but the actor may not do this
    ├── Invalid               arguments are malformed or out of range
    ├── Conflict              the operation clashes with current state (duplicate, already done)
    ├── Busy                  the database stayed locked by other writers: retry later
    └── ConfigError           a scenario, task or setting is wrong; names the file, field and reason

Each edge translates these exactly once: HTTP status in the web layer, a tool
error in MCP, an error observation in the Gym.
"""

from __future__ import annotations

__all__ = ["Busy", "ConfigError", "Conflict", "Forbidden", "Invalid", "NotFound", "OfficeGymError"]


class OfficeGymError(Exception):
    """Base class; `code` is a short machine-readable reason (e.g. ``not_in_channel``)."""

    http_status = 400
    default_code = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code


class NotFound(OfficeGymError):
    http_status = 404
    default_code = "not_found"


class Forbidden(OfficeGymError):
    http_status = 403
    default_code = "forbidden"


class Invalid(OfficeGymError):
    http_status = 422
    default_code = "invalid_arguments"


class Conflict(OfficeGymError):
    http_status = 409
    default_code = "conflict"


class Busy(OfficeGymError):
    """The write lock stayed held by other writers past the bounded wait (a SQLite file
    under load): nothing changed, and the same request may succeed `retry_after` seconds
    later (HTTP 503 with ``Retry-After``)."""

    http_status = 503
    default_code = "service_unavailable"
    retry_after = 1  # seconds

    @property
    def headers(self) -> dict[str, str]:
        """The HTTP headers every door sends with its 503."""
        return {"Retry-After": str(self.retry_after)}


class ConfigError(OfficeGymError):
    """A bad scenario/task/config file: the message names file, field and reason."""

    default_code = "config_error"

    def __init__(self, file: str, field: str, reason: str) -> None:
        super().__init__(f"{file}: field '{field}': {reason}", code=self.default_code)
        self.file = file
        self.field = field
        self.reason = reason
