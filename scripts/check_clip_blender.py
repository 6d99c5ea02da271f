"""Imports a GLB with Blender's own glTF importer (bpy, Blender as a Python module) and prints
where a clip puts every bone and animated object, in glTF coordinates (Y up), as JSON:

    {"blender": "4.5.x", "clip": NAME, "fps": F, "frames": [...],
     "bones": {"name": [[x, y, z], ...]},     # pose-bone heads, one per frame
     "objects": {"name": [[x, y, z], ...]}}   # world positions of objects the clip animates

    python scripts/check_clip_blender.py FILE.glb --clip session --fps 30 --frames 0,10,20

The scene runs at `--fps` before the import, so frame f is clip time f / fps. Every animated
object gets the clip's action (its own slot), and the importer's NLA strips are muted so only
that clip plays. Blender is Z up: its (x, y, z) is glTF's (x, -z, y).
"""

import argparse
import json
import sys

import bpy

# Unanimated empties whose world positions are reported too: the bundled rod's knob, which
# its turning crank carries.
KNOB_EMPTIES = ("reel_knob",)


def gltf_from_blender(v):
    return [v[0], v[2], -v[1]]


def main():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--clip", required=True)
    ap.add_argument("--fps", type=int, required=True)
    ap.add_argument("--frames", required=True)
    args = ap.parse_args(argv)
    frames = [float(f) for f in args.frames.split(",") if f]

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = args.fps
    scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=args.file)
    action = bpy.data.actions.get(args.clip)
    if action is None:
        names = ", ".join(a.name for a in bpy.data.actions)
        sys.exit(f"no action {args.clip!r}; actions: {names}")

    animated = []
    for ob in scene.objects:
        ad = ob.animation_data
        if ad is None:
            continue
        for track in ad.nla_tracks:
            track.mute = True
        ad.action = action
        slots = getattr(action, "slots", None)
        if slots is not None and ad.action_slot is None:
            match = [s for s in slots if s.name_display == ob.name]
            if match:
                ad.action_slot = match[0]
        animated.append(ob)

    bones = {}
    objects = {}
    for f in frames:
        whole = int(f // 1)
        scene.frame_set(whole, subframe=f - whole)
        for ob in animated:
            if ob.type == "ARMATURE":
                for pb in ob.pose.bones:
                    p = ob.matrix_world @ pb.head
                    bones.setdefault(pb.name, []).append(gltf_from_blender(p))
                # An animated node that became an armature (the rod holder carrying the bend
                # chain) is reported as an object too.
                p = ob.matrix_world.translation
                objects.setdefault(ob.name, []).append(gltf_from_blender(p))
            else:
                p = ob.matrix_world.translation
                objects.setdefault(ob.name, []).append(gltf_from_blender(p))
        # Empties that move with an animated parent (the reel's knob on its turning crank).
        for ob in scene.objects:
            if ob.name in KNOB_EMPTIES and ob not in animated:
                p = ob.matrix_world.translation
                objects.setdefault(ob.name, []).append(gltf_from_blender(p))
    print(
        json.dumps(
            {
                "blender": bpy.app.version_string,
                "clip": args.clip,
                "fps": args.fps,
                "frames": frames,
                "bones": bones,
                "objects": objects,
            }
        )
    )


main()
