"""Browsers reach Annales: the services over the Connect protocol, and the web app (docs/web.md)."""
