"""Imperium solo campaigns ("MODE CAMPAGNE", "MODE MAÎTRE SUPRÊME"): a pure, event-sourced
aggregate (:mod:`domain.campaign.engine`); the service stores its events in their own stream."""
