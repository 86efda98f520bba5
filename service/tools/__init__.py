"""Operator and developer tools built on the service (not used by the service itself)."""
