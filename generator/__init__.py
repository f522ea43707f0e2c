"""Printables drawn once against a small canvas, rendered to PDF, SVG and PNG."""
