"""Writes an FBX character from a glTF one with Blender (bpy 4.5.15), for tests/fbx.rs.

    python make_fbx_blender.py SRC.glb DST.fbx [--scale S] [--forward AXIS] [--up AXIS]
                               [--rename MAP.json] [--centimetres] [--subdivide N]
                               [--glb SAME.glb]

--scale, --forward, --up: the exporter's global scale and axis settings (the file records
them; a reader must undo them). --rename: a JSON object of bone renames (old -> new), applied
before export (vertex groups follow). --centimetres: Mixamo-style, every object's data scaled
by 100 and the armature object scaled by 0.01, so the bones and the mesh are in centimetres.
--subdivide: every mesh subdivided N times (Catmull-Clark, skin weights interpolated) before
export. --glb: the same scene also written as glTF binary (benches/load.rs compares the two).
Prints "ok" when written.
"""
import argparse
import json
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
ap = argparse.ArgumentParser()
ap.add_argument("src")
ap.add_argument("dst")
ap.add_argument("--scale", type=float, default=1.0)
ap.add_argument("--forward", default="-Z")
ap.add_argument("--up", default="Y")
ap.add_argument("--rename")
ap.add_argument("--centimetres", action="store_true")
ap.add_argument("--subdivide", type=int, default=0)
ap.add_argument("--glb")
args = ap.parse_args(argv)

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=args.src)
armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
# Blender's glTF importer draws bones with a custom shape (an icosphere object); it is not
# part of the character, and the FBX exporter would write it as a mesh.
shapes = {pb.custom_shape for arm in armatures for pb in arm.pose.bones if pb.custom_shape}
for arm in armatures:
    for pb in arm.pose.bones:
        pb.custom_shape = None
for shape in shapes:
    bpy.data.objects.remove(shape, do_unlink=True)
if args.rename:
    with open(args.rename) as f:
        renames = json.load(f)
    for arm in armatures:
        for bone in arm.data.bones:
            if bone.name in renames:
                bone.name = renames[bone.name]
if args.centimetres:
    for arm in armatures:
        arm.scale = (arm.scale[0] * 100.0, arm.scale[1] * 100.0, arm.scale[2] * 100.0)
    bpy.context.view_layer.update()
    bpy.ops.object.select_all(action="SELECT")
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    for arm in armatures:
        arm.scale = (0.01, 0.01, 0.01)
    bpy.context.view_layer.update()
if args.subdivide > 0:
    for obj in bpy.data.objects:
        if obj.type == "MESH":
            mod = obj.modifiers.new("subdivide", "SUBSURF")
            mod.levels = args.subdivide
            mod.render_levels = args.subdivide
bpy.ops.export_scene.fbx(
    filepath=args.dst,
    global_scale=args.scale,
    axis_forward=args.forward,
    axis_up=args.up,
    add_leaf_bones=False,
    path_mode="COPY",
    embed_textures=True,
)
if args.glb:
    bpy.ops.export_scene.gltf(filepath=args.glb, export_format="GLB", export_apply=True)
print("ok")
