"""Frozen estimator networks (ONNX) and tables, each beside its model card; installed as ``ginbots.weights``."""
