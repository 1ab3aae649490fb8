"""The intermediate representation every other layer shares. Imports nothing from isalens."""
