"""Read a TensorFlow 2 checkpoint (``cp.ckpt.index`` + ``cp.ckpt.data-*``) into numpy, without TensorFlow.

The index is a LevelDB-format table (blocks of prefix-compressed keys, a footer with the index
block's handle) whose values are ``BundleEntryProto`` messages: dtype, shape, shard, offset, size.
Only what the authors' Keras checkpoints use is handled: uncompressed blocks, float32 tensors.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

_MAGIC = 0xDB4775248B80FB57
_DTYPES = {1: np.float32, 2: np.float64, 3: np.int32, 9: np.int64}


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def _block_entries(buf: bytes, offset: int, size: int) -> list[tuple[bytes, bytes]]:
    block = buf[offset:offset + size]
    restarts = struct.unpack_from("<I", block, len(block) - 4)[0]
    end = len(block) - 4 - 4 * restarts
    pos, key, out = 0, b"", []
    while pos < end:
        shared, pos = _varint(block, pos)
        unshared, pos = _varint(block, pos)
        length, pos = _varint(block, pos)
        key = key[:shared] + block[pos:pos + unshared]
        pos += unshared
        out.append((key, block[pos:pos + length]))
        pos += length
    return out


def _fields(msg: bytes) -> dict[int, list]:
    """Protobuf wire fields of ``msg`` (varints and length-delimited bytes; fixed32 as int)."""
    out: dict[int, list] = {}
    pos = 0
    while pos < len(msg):
        tag, pos = _varint(msg, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = _varint(msg, pos)
        elif wire == 2:
            length, pos = _varint(msg, pos)
            value, pos = msg[pos:pos + length], pos + length
        elif wire == 5:
            value, pos = struct.unpack_from("<I", msg, pos)[0], pos + 4
        elif wire == 1:
            value, pos = struct.unpack_from("<Q", msg, pos)[0], pos + 8
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        out.setdefault(number, []).append(value)
    return out


def read_checkpoint(prefix: str | Path) -> dict[str, np.ndarray]:
    """Every tensor of the checkpoint ``prefix`` (e.g. ``models/DualInception/cp.ckpt``), by its key."""
    prefix = Path(prefix)
    index = (prefix.parent / (prefix.name + ".index")).read_bytes()
    footer = index[-48:]
    if struct.unpack_from("<Q", footer, 40)[0] != _MAGIC:
        raise ValueError(f"{prefix}.index is not a TensorFlow checkpoint index")
    pos = 0
    _, pos = _varint(footer, pos)  # metaindex handle
    _, pos = _varint(footer, pos)
    index_offset, pos = _varint(footer, pos)
    index_size, pos = _varint(footer, pos)
    shards: dict[int, bytes] = {}
    tensors = {}
    for _, handle in _block_entries(index, index_offset, index_size):
        offset, p = _varint(handle, 0)
        size, _ = _varint(handle, p)
        for key, value in _block_entries(index, offset, size):
            if not key:
                continue  # the bundle header
            f = _fields(value)
            dtype = _DTYPES.get(f.get(1, [0])[0])
            if dtype is None:
                continue  # strings (the object graph) and other kinds are not needed
            shape = [_fields(d).get(1, [0])[0] for d in _fields(f[2][0]).get(2, [])] if 2 in f else []
            shard = f.get(3, [0])[0]
            if shard not in shards:
                files = sorted(prefix.parent.glob(prefix.name + ".data-*"))
                shards[shard] = files[shard].read_bytes()
            start, length = f.get(4, [0])[0], f.get(5, [0])[0]
            tensors[key.decode()] = np.frombuffer(shards[shard][start:start + length], dtype=dtype).reshape(shape)
    return tensors
