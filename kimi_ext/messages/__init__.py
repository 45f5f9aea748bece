"""messages"""
