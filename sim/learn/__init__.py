"""The learned player's pipeline: decisions labelled by search (`data`), the networks fitted to them (`train`), and
how strong and fast the result plays (`evaluate`). Above the strategies: it plays them; nothing below imports it."""
