"""One screen per module. `LeadScreen` (base.py) is the frame every main screen lives in."""
