"""studybot: walk a long LLM interview question bank in short, cache-friendly sessions."""

__version__ = "0.1.0"
