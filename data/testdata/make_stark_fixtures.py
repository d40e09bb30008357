#!/usr/bin/env python3
"""Builds tiny STaRK processed-SKB fixtures with the Python standard library.

STaRK's load_skb extracts node_info.pkl, node_type_dict.pkl, edge_type_dict.pkl
(pickles of dicts) and edge_index.pt, edge_types.pt, node_types.pt (torch.save
zip archives holding one int64 tensor). torch and numpy are not needed: fake
modules give pickle the global names torch uses (torch._utils._rebuild_tensor_v2,
torch.LongStorage) and numpy scalars use (numpy.dtype,
numpy.core.multiarray.scalar), so the files have the byte layout torch.save and
pickle.dump produce with protocol 4.

Run from this directory: python3 make_stark_fixtures.py
"""
import collections
import os
import pickle
import struct
import sys
import types
import zipfile

torch = types.ModuleType("torch")
torch_utils = types.ModuleType("torch._utils")
sys.modules["torch"] = torch
sys.modules["torch._utils"] = torch_utils


class LongStorage:
    pass


LongStorage.__module__ = "torch"
torch.LongStorage = LongStorage


def _rebuild_tensor_v2(*args):
    raise RuntimeError("only for pickling")


_rebuild_tensor_v2.__module__ = "torch._utils"
torch_utils._rebuild_tensor_v2 = _rebuild_tensor_v2

numpy = types.ModuleType("numpy")
numpy_core = types.ModuleType("numpy.core")
numpy_ma = types.ModuleType("numpy.core.multiarray")
sys.modules.update({"numpy": numpy, "numpy.core": numpy_core, "numpy.core.multiarray": numpy_ma})


class dtype:
    def __init__(self, code):
        self.code = code

    def __reduce__(self):
        return (dtype, (self.code, False, True), (3, "<", None, None, None, -1, -1, 0))

    def __setstate__(self, state):
        pass


dtype.__module__ = "numpy"
numpy.dtype = dtype


def scalar(dt, payload):
    raise RuntimeError("only for pickling")


scalar.__module__ = "numpy.core.multiarray"
numpy_ma.scalar = scalar


class F64:
    """A numpy.float64 as pandas' to_dict() leaves it."""

    def __init__(self, v):
        self.v = v

    def __reduce__(self):
        return (scalar, (dtype("f8"), struct.pack("<d", self.v)))


class StorageRef:
    def __init__(self, key, numel):
        self.key, self.numel = key, numel


class Tensor:
    def __init__(self, values, shape):
        self.values, self.shape = values, shape

    def __reduce_ex__(self, protocol):
        stride, acc = [], 1
        for d in reversed(self.shape):
            stride.insert(0, acc)
            acc *= d
        return (_rebuild_tensor_v2, (StorageRef("0", len(self.values)), 0, tuple(self.shape), tuple(stride),
                                     False, collections.OrderedDict()))


class TorchPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, StorageRef):
            return ("storage", LongStorage, obj.key, "cpu", obj.numel)
        return None


def torch_save(path, values, shape):
    import io
    buf = io.BytesIO()
    TorchPickler(buf, protocol=2).dump(Tensor(values, shape))
    stem = os.path.splitext(os.path.basename(path))[0]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in [("data.pkl", buf.getvalue()), ("byteorder", b"little"),
                           ("data/0", struct.pack("<%dq" % len(values), *values)), ("version", b"3\n")]:
            info = zipfile.ZipInfo(stem + "/" + name, date_time=(2024, 1, 1, 0, 0, 0))
            z.writestr(info, data)


def dump(path, obj):
    with open(path, "wb") as f:
        pickle.dump(obj, f, protocol=4)


def write(name, node_info, node_types, node_type_dict, edges, edge_type_dict):
    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stark", name)
    os.makedirs(d, exist_ok=True)
    dump(os.path.join(d, "node_info.pkl"), node_info)
    dump(os.path.join(d, "node_type_dict.pkl"), node_type_dict)
    dump(os.path.join(d, "edge_type_dict.pkl"), edge_type_dict)
    torch_save(os.path.join(d, "node_types.pt"), node_types, [len(node_types)])
    src = [e[0] for e in edges]
    dst = [e[2] for e in edges]
    torch_save(os.path.join(d, "edge_index.pt"), src + dst, [2, len(edges)])
    torch_save(os.path.join(d, "edge_types.pt"), [e[1] for e in edges], [len(edges)])


prime_types = {0: "disease", 1: "gene/protein", 2: "drug"}
prime_rels = {0: "ppi", 1: "target", 2: "indication", 3: "associated with"}
write("prime", {
    0: {"id": "MONDO:1", "type": "disease", "name": "kala syndrome", "source": "MONDO",
        "details": {"mondo_definition": "a rare disorder", "umls_description": float("nan"), "mayo_symptoms": F64(2.5),
                    "_private": "x", "group_id_bert": "7"}},
    1: {"id": 7157, "type": "gene/protein", "name": "TP53", "source": "NCBI",
        "details": {"name": "tumor protein p53", "alias": ["p53", "LFS1"], "genomic_pos": [{"chr": "17"}, {"chr": "X"}],
                    "interpro": [{"desc": "p53 DNA-binding", "id": "IPR1"}, {"desc": "p53 tetramer", "id": "IPR2"}],
                    "generif": [{"pubmed": 1, "text": "binds DNA"}, {"pubmed": 2, "text": "mutated in cancer"}],
                    "summary": "This gene encodes a tumor suppressor."}},
    2: {"id": "DB1", "type": "drug", "name": "Kalamab", "source": "DrugBank", "details": {"description": "an antibody", "half_life": ""}},
    3: {"id": 4, "type": "gene/protein", "name": "MDM2", "source": "NCBI"},
}, [0, 1, 2, 1], prime_types, [(1, 0, 3), (2, 1, 1), (2, 2, 0), (1, 3, 0)], prime_rels)

mag_types = {0: "author", 1: "institution", 2: "field_of_study", 3: "paper"}
mag_rels = {0: "author___affiliated_with___institution", 1: "paper___cites___paper",
            2: "paper___has_topic___field_of_study", 3: "author___writes___paper"}
write("mag", {
    0: {"type": "author", "DisplayName": "Ada Byron", "PaperCount": 12, "CitationCount": -1, "mag_id": 5},
    1: {"type": "institution", "DisplayName": "Point Park University", "PaperCount": -1, "CitationCount": 3},
    2: {"type": "field_of_study", "DisplayName": "stellar populations", "PaperCount": 4, "CitationCount": 9},
    3: {"type": "paper", "title": "Stars in clusters", "abstract": "We study stars.\r\n", "Date": "2001-02-03",
        "OriginalVenue": -1, "JournalDisplayName": "Astro Journal", "mag_id": 99},
    4: {"type": "paper", "title": "Dust", "abstract": "Dust grains.", "Date": -1, "OriginalVenue": "ApJ"},
}, [0, 1, 2, 3, 3], mag_types, [(0, 0, 1), (4, 1, 3), (3, 2, 2), (0, 3, 3), (0, 3, 4)], mag_rels)

amazon_types = {0: "product", 1: "brand", 2: "category", 3: "color"}
amazon_rels = {0: "also_buy", 1: "also_view", 2: "has_brand", 3: "has_category", 4: "has_color"}
write("amazon", {
    0: {"title": "Trail Runner 2", "brand": "Acme", "description": ["Light shoe.", " Grippy sole. "],
        "feature": ["Waterproof", "", "ASIN: B00X"], "review": [{"summary": "Great", "reviewText": "Love it", "vote": "3"},
                   {"summary": "Best", "reviewText": "Top", "vote": "1,204"}],
        "qa": [{"question": "Wide?", "answer": "Yes"}],
        "details": {"dictionary": {"product_dimensions": "10 x 4 x 3 inches ; 1.2 pounds"}}},
    1: {"title": "Road Shoe", "description": [], "feature": [], "review": [], "qa": []},
    2: {"brand_name": "Acme"},
    3: {"category_name": "Running"},
    4: {"color_name": "teal"},
}, [0, 0, 1, 2, 3], amazon_types, [(0, 0, 1), (0, 2, 2), (1, 2, 2), (0, 3, 3), (0, 4, 4)], amazon_rels)

# Malformed: an edge pointing past the last node.
write("bad_edge", {0: {"name": "a", "type": "disease", "source": "x"}}, [0], {0: "disease"}, [(0, 0, 5)], {0: "ppi"})


# An embedding dictionary as STaRK's emb_download saves it: node id -> a
# float32 tensor of shape [1, D], each in its own storage.
class FloatStorage:
    pass


FloatStorage.__module__ = "torch"
torch.FloatStorage = FloatStorage


class FloatTensor:
    def __init__(self, key, values, shape):
        self.key, self.values, self.shape = key, values, shape

    def __reduce_ex__(self, protocol):
        return (_rebuild_tensor_v2, (FloatRef(self.key, len(self.values)), 0, tuple(self.shape), (self.shape[1], 1),
                                     False, collections.OrderedDict()))


class FloatRef:
    def __init__(self, key, numel):
        self.key, self.numel = key, numel


class EmbPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, FloatRef):
            return ("storage", FloatStorage, obj.key, "cpu", obj.numel)
        return None


def torch_save_emb_dict(path, rows):
    import io
    buf = io.BytesIO()
    tensors = {nid: FloatTensor(str(i), vals, [1, len(vals)]) for i, (nid, vals) in enumerate(rows)}
    EmbPickler(buf, protocol=2).dump(tensors)
    stem = os.path.splitext(os.path.basename(path))[0]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        entries = [("data.pkl", buf.getvalue()), ("byteorder", b"little"), ("version", b"3\n")]
        for i, (nid, vals) in enumerate(rows):
            entries.append(("data/%d" % i, struct.pack("<%df" % len(vals), *vals)))
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(stem + "/" + name, date_time=(2024, 1, 1, 0, 0, 0)), data)


emb_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stark", "emb")
os.makedirs(emb_dir, exist_ok=True)
torch_save_emb_dict(os.path.join(emb_dir, "candidate_emb_dict.pt"), [(2, [0.5, -1.0, 2.0]), (0, [1.0, 0.0, 0.25])])
