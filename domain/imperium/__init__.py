"""Imperium: Classics (and later Legends): content data and rules."""
