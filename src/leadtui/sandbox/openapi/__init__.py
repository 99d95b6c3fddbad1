"""The sandbox's OpenAPI 3.1 document: what every operation answers, errors included."""
