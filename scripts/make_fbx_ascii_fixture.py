"""Writes tests/fixtures/fbx/ascii_arm.fbx: an ASCII FBX 7.4 file (Blender writes only binary)
with a three-bone arm (upper, fore, hand; centimetres, Y up) skinning a square column of 16
vertices, each ring wholly to one bone. tests/fbx.rs reads it.

    python3 scripts/make_fbx_ascii_fixture.py
"""
from pathlib import Path

RINGS = [0.0, 20.0, 40.0, 60.0]  # cm along +Y
SQUARE = [(-3, -3), (3, -3), (3, 3), (-3, 3)]
BONES = [("upper", 0.0), ("fore", 30.0), ("hand", 25.0)]  # Lcl Translation y, parent chain
WORLD_Y = {"upper": 0.0, "fore": 30.0, "hand": 55.0}
OWNER = {0: "upper", 1: "upper", 2: "fore", 3: "hand"}  # ring -> bone
IDS = {"geo": 1000, "mesh": 1001, "skin": 1002, "root": 3000,
       "upper": 2000, "fore": 2001, "hand": 2002,
       "upper_attr": 2100, "fore_attr": 2101, "hand_attr": 2102,
       "upper_cl": 2200, "fore_cl": 2201, "hand_cl": 2202}


def arr(vals):
    return ",".join(str(v) for v in vals)


def translation(y):
    return arr([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, y, 0, 1])


def main():
    verts = [c for y in RINGS for x, z in SQUARE for c in (x, y, z)]
    polys = []
    for r in range(3):
        for k in range(4):
            a, b = r * 4 + k, r * 4 + (k + 1) % 4
            polys += [a, b, b + 4, -(a + 4 + 1)]
    out = []
    w = out.append
    w("; FBX 7.4.0 project file")
    w("; A three-bone arm skinning a square column, written by")
    w("; scripts/make_fbx_ascii_fixture.py for tests/fbx.rs.")
    w("FBXHeaderExtension:  {")
    w("\tFBXHeaderVersion: 1003")
    w("\tFBXVersion: 7400")
    w('\tCreator: "anglerpose test fixture"')
    w("}")
    w("GlobalSettings:  {")
    w("\tVersion: 1000")
    w("\tProperties70:  {")
    for name, v in [("UpAxis", 1), ("UpAxisSign", 1), ("FrontAxis", 2), ("FrontAxisSign", 1),
                    ("CoordAxis", 0), ("CoordAxisSign", 1)]:
        w(f'\t\tP: "{name}", "int", "Integer", "",{v}')
    w('\t\tP: "UnitScaleFactor", "double", "Number", "",1')
    w("\t}")
    w("}")
    w("Objects:  {")
    w(f'\tGeometry: {IDS["geo"]}, "Geometry::column", "Mesh" {{')
    w(f"\t\tVertices: *{len(verts)} {{")
    w(f"\t\t\ta: {arr(verts)}")
    w("\t\t}")
    w(f"\t\tPolygonVertexIndex: *{len(polys)} {{")
    w(f"\t\t\ta: {arr(polys)}")
    w("\t\t}")
    w("\t\tGeometryVersion: 124")
    w("\t}")
    w(f'\tModel: {IDS["root"]}, "Model::Armature", "Null" {{')
    w("\t\tVersion: 232")
    w("\t}")
    w(f'\tModel: {IDS["mesh"]}, "Model::column", "Mesh" {{')
    w("\t\tVersion: 232")
    w("\t}")
    for name, ty in BONES:
        w(f'\tNodeAttribute: {IDS[name + "_attr"]}, "NodeAttribute::{name}", "LimbNode" {{')
        w('\t\tTypeFlags: "Skeleton"')
        w("\t}")
        w(f'\tModel: {IDS[name]}, "Model::{name}", "LimbNode" {{')
        w("\t\tVersion: 232")
        w("\t\tProperties70:  {")
        w(f'\t\t\tP: "Lcl Translation", "Lcl Translation", "", "A",0,{ty},0')
        w("\t\t}")
        w("\t}")
    w(f'\tDeformer: {IDS["skin"]}, "Deformer::skin", "Skin" {{')
    w("\t\tVersion: 101")
    w("\t}")
    for name, _ in BONES:
        idx = [i for i in range(16) if OWNER[i // 4] == name]
        w(f'\tDeformer: {IDS[name + "_cl"]}, "SubDeformer::{name}", "Cluster" {{')
        w("\t\tVersion: 100")
        w(f"\t\tIndexes: *{len(idx)} {{")
        w(f"\t\t\ta: {arr(idx)}")
        w("\t\t}")
        w(f"\t\tWeights: *{len(idx)} {{")
        w(f"\t\t\ta: {arr([1] * len(idx))}")
        w("\t\t}")
        # As exporters write it (and ufbx reads it): the mesh node in the bone's space at
        # bind time, the inverse of TransformLink times the mesh's own (identity) placement.
        w("\t\tTransform: *16 {")
        w(f"\t\t\ta: {translation(-WORLD_Y[name])}")
        w("\t\t}")
        w("\t\tTransformLink: *16 {")
        w(f"\t\t\ta: {translation(WORLD_Y[name])}")
        w("\t\t}")
        w("\t}")
    w("}")
    w("Connections:  {")
    links = [("root", None), ("mesh", "root"), ("geo", "mesh"), ("upper", "root"),
             ("fore", "upper"), ("hand", "fore")]
    links += [(n + "_attr", n) for n, _ in BONES]
    links += [("skin", "geo")]
    for n, _ in BONES:
        links += [(n + "_cl", "skin"), (n, n + "_cl")]
    for child, parent in links:
        w(f'\tC: "OO",{IDS[child]},{IDS[parent] if parent else 0}')
    w("}")
    path = Path(__file__).resolve().parent.parent / "tests/fixtures/fbx/ascii_arm.fbx"
    path.write_text("\n".join(out) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
