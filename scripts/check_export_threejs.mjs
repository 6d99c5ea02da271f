#!/usr/bin/env node
// Loads a GLB with three.js r187's GLTFLoader (parse() on the bytes; no DOM needed for a file
// without textures) and prints the world position of every joint (every node GLTFLoader turns
// into a Bone) as JSON: {"revision": "187", "joints": [{"node": i, "name": "...", "position": [x, y, z]}]}.
//
//   node scripts/check_export_threejs.mjs [--oracle DIR] FILE.glb
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
const i = args.indexOf( '--oracle' );
if ( i >= 0 ) {

	oracle = args[ i + 1 ];
	args.splice( i, 2 );

}
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
