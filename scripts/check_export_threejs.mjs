#!/usr/bin/env node
// Loads a GLB with three.js r187's GLTFLoader (parse() on the bytes; no DOM needed for a file
// without textures) and prints the world position of every joint (every node GLTFLoader turns
// into a Bone) as JSON: {"revision": "187", "joints": [{"node": i, "name": "...", "position": [x, y, z]}]}.
//
//   node scripts/check_export_threejs.mjs [--oracle DIR] FILE.glb
//
// With `--clip NAME --times T1,T2,…` it plays the clip with an AnimationMixer (LoopOnce,
// clamped at the end) and prints, for every node the loader associates with a glTF node, its
// world position at each time: {"revision": "187", "clip": NAME, "duration": D, "times": [...],
// "nodes": [{"node": i, "name": "...", "positions": [[x, y, z], …]}]}.
//
// `three` comes from the oracle folder (default ../shared/oracles/threejs-ccd next to the repo,
// which pins three 0.187.0 exactly). When it has no node_modules (the shared copy is
// read-only), the folder is copied to $TMPDIR/anglerpose-threejs-ccd and `npm ci` runs there
// once (the only network use).

import { cpSync, existsSync, readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve( dirname( fileURLToPath( import.meta.url ) ), '..' );
const args = process.argv.slice( 2 );
let oracle = join( repo, '..', 'shared', 'oracles', 'threejs-ccd' );
function option( name ) {

	const i = args.indexOf( name );
	if ( i < 0 ) return undefined;
	const value = args[ i + 1 ];
	args.splice( i, 2 );
	return value;

}
oracle = option( '--oracle' ) ?? oracle;
const clipName = option( '--clip' );
const times = ( option( '--times' ) ?? '' ).split( ',' ).filter( ( t ) => t !== '' ).map( Number );
oracle = resolve( oracle );
const file = args[ 0 ];
if ( ! file ) {

	console.error( 'usage: node scripts/check_export_threejs.mjs [--oracle DIR] FILE.glb' );
	process.exit( 2 );

}

if ( ! existsSync( join( oracle, 'node_modules', 'three' ) ) ) {

	const scratch = join( tmpdir(), 'anglerpose-threejs-ccd' );
	if ( ! existsSync( join( scratch, 'node_modules', 'three', 'package.json' ) ) ) {

		cpSync( oracle, scratch, { recursive: true } );
		execSync( 'npm ci --no-audit --no-fund --ignore-scripts', { cwd: scratch, stdio: [ 'ignore', 'ignore', 'inherit' ] } );

	}

	oracle = scratch;

}

const three = join( oracle, 'node_modules', 'three' );
const THREE = await import( pathToFileURL( join( three, 'build', 'three.module.js' ) ).href );
const { GLTFLoader } = await import( pathToFileURL( join( three, 'examples', 'jsm', 'loaders', 'GLTFLoader.js' ) ).href );
if ( THREE.REVISION !== '187' ) throw new Error( `expected three r187, found r${THREE.REVISION}` );

const bytes = readFileSync( file );
const buffer = bytes.buffer.slice( bytes.byteOffset, bytes.byteOffset + bytes.byteLength );
const gltf = await new Promise( ( ok, fail ) => new GLTFLoader().parse( buffer, '', ok, fail ) );
const json = gltf.parser.json;
if ( clipName !== undefined ) {

	const clip = gltf.animations.find( ( c ) => c.name === clipName );
	if ( ! clip ) throw new Error( `no clip ${clipName}; clips: ${gltf.animations.map( ( c ) => c.name ).join( ', ' )}` );
	const mixer = new THREE.AnimationMixer( gltf.scene );
	const action = mixer.clipAction( clip );
	action.setLoop( THREE.LoopOnce, 1 );
	action.clampWhenFinished = true;
	action.play();
	const nodes = new Map();
	gltf.scene.traverse( ( o ) => {

		const assoc = gltf.parser.associations.get( o );
		if ( ! assoc || assoc.nodes === undefined || nodes.has( assoc.nodes ) ) return;
		nodes.set( assoc.nodes, { node: assoc.nodes, name: json.nodes[ assoc.nodes ].name ?? '', object: o, positions: [] } );

	} );
	for ( const t of times ) {

		mixer.setTime( t );
		gltf.scene.updateMatrixWorld( true );
		for ( const n of nodes.values() ) {

			const p = n.object.getWorldPosition( new THREE.Vector3() );
			n.positions.push( [ p.x, p.y, p.z ] );

		}

	}
	const out = [ ...nodes.values() ].sort( ( a, b ) => a.node - b.node ).map( ( { node, name, positions } ) => ( { node, name, positions } ) );
	// No process.exit here: it would cut a piped stdout short.
	console.log( JSON.stringify( { revision: THREE.REVISION, clip: clip.name, duration: clip.duration, times, nodes: out } ) );

} else {

	printJoints();

}

function printJoints() {

	gltf.scene.updateMatrixWorld( true );
	const joints = [];
	const seen = new Set();
	gltf.scene.traverse( ( o ) => {

		if ( ! o.isBone ) return;
		const assoc = gltf.parser.associations.get( o );
		const node = assoc && assoc.nodes !== undefined ? assoc.nodes : - 1;
		if ( seen.has( node ) ) return;
		seen.add( node );
		const p = o.getWorldPosition( new THREE.Vector3() );
		joints.push( { node, name: node >= 0 ? ( json.nodes[ node ].name ?? '' ) : o.name, position: [ p.x, p.y, p.z ] } );

	} );
	joints.sort( ( a, b ) => a.node - b.node );
	console.log( JSON.stringify( { revision: THREE.REVISION, joints } ) );

}
