"""The files and tables: exports, the calendar, the chart, monospace tables, messages that
show stored facts, titles in words."""
