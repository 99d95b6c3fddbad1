"""The sandbox's domain: credits and launches, searches, exports, extractions and the moves
between their states. Routes and the demo data both act through it; it knows no HTTP routing."""
