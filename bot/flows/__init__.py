"""Flows: one piece of work each (draft a round, publish it, the deadline run, post the
standings). A flow is one transaction: what it stores, and every message that change owes
(through the outbox), commit together or not at all; it returns a report for the handler's
reply. A flow called inside a handler's transaction joins it (`storage.db`)."""
