"""Tests of the Imperium package."""
