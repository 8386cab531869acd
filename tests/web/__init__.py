"""Tests of the web port: the Connect transport, hostile HTTP, the web app in Chromium."""
