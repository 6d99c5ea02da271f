"""The FBX fuzz seed (fuzz/seeds/fbx_import/tiny_arm.fbx): a three-bone arm skinning a box,
written by Blender (bpy 4.5.15): `python scripts/make_fbx_seed_blender.py OUT.fbx`."""
import sys
import bpy
dst = sys.argv[-1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.object.armature_add(enter_editmode=True, location=(0, 0, 0))
arm = bpy.context.object
eb = arm.data.edit_bones
root = eb[0]
root.name = "upper"
root.head, root.tail = (0, 0, 0), (0, 0, 0.3)
fore = eb.new("fore"); fore.head, fore.tail = (0, 0, 0.3), (0, 0, 0.55); fore.parent = root; fore.use_connect = True
hand = eb.new("hand"); hand.head, hand.tail = (0, 0, 0.55), (0, 0, 0.65); hand.parent = fore; hand.use_connect = True
bpy.ops.object.mode_set(mode="OBJECT")
bpy.ops.mesh.primitive_cube_add(size=0.1, location=(0, 0, 0.33))
cube = bpy.context.object
cube.scale = (1, 1, 6.5)
bpy.ops.object.transform_apply(scale=True)
bpy.ops.object.modifier_add(type="SUBSURF")
cube.modifiers[0].levels = 1
bpy.ops.object.modifier_apply(modifier=cube.modifiers[0].name)
mat = bpy.data.materials.new("skin"); mat.diffuse_color = (0.8, 0.5, 0.3, 1.0)
cube.data.materials.append(mat)
cube.select_set(True); arm.select_set(True); bpy.context.view_layer.objects.active = arm
bpy.ops.object.parent_set(type="ARMATURE_AUTO")
bpy.ops.export_scene.fbx(filepath=dst, add_leaf_bones=False)
print("ok")
