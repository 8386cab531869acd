// the web app (see docs/web.md)
