"""Imperium: Classics and Legends — content data and rules."""
