#!/usr/bin/env node
// Times three.js r187 CCDIKSolver.update() on every scene of tests/fixtures/ccd.
//
//   node scripts/bench_threejs_ccd.mjs [--oracle DIR] [--fixtures DIR] [--filter TEXT]
//
// Unit of work per scene (the same as benches/ik_ccd.rs): restore the initial local quaternion
// of every chain link (the only bones the solver writes), updateMatrixWorld(true) on each
// chain's top link (refreshes its subtree, the only stale matrices), then
// solver.update(globalBlendFactor): every iteration solves the same first frame. Warm-up ~0.5 s, then 41 batches of ~10 ms; prints one
// JSON line per scene: {"scene", "median_ns", "batches", "iters_per_batch"}.
//
// `three` comes from the oracle folder (default ../shared/oracles/threejs-ccd next to the
// repo). When it has no node_modules (the shared copy is read-only), the folder is copied to
// $TMPDIR/anglerpose-threejs-ccd and `npm ci` runs there once.

import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve( dirname( fileURLToPath( import.meta.url ) ), '..' );
const arg = ( name, fallback ) => {

	const i = process.argv.indexOf( name );
	return i >= 0 ? process.argv[ i + 1 ] : fallback;

};
let oracle = resolve( arg( '--oracle', join( repo, '..', 'shared', 'oracles', 'threejs-ccd' ) ) );
const fixtures = resolve( arg( '--fixtures', join( repo, 'tests', 'fixtures', 'ccd' ) ) );
const filter = arg( '--filter', '' );

if ( ! existsSync( join( oracle, 'node_modules', 'three' ) ) ) {

	const scratch = join( tmpdir(), 'anglerpose-threejs-ccd' );
	if ( ! existsSync( join( scratch, 'node_modules', 'three' ) ) ) {

		cpSync( oracle, scratch, { recursive: true } );
		execSync( 'npm ci --no-audit --no-fund', { cwd: scratch, stdio: [ 'ignore', 'ignore', 'inherit' ] } );

	}

	oracle = scratch;

}

const threeUrl = pathToFileURL( join( oracle, 'node_modules', 'three', 'build', 'three.module.js' ) ).href;
const ccdUrl = pathToFileURL( join( oracle, 'node_modules', 'three', 'examples', 'jsm', 'animation', 'CCDIKSolver.js' ) ).href;
const THREE = await import( threeUrl );
const { CCDIKSolver } = await import( ccdUrl );
if ( THREE.REVISION !== '187' ) throw new Error( `expected three r187, found r${THREE.REVISION}` );

const v3 = ( a ) => new THREE.Vector3( a[ 0 ], a[ 1 ], a[ 2 ] );

// Same construction as oracle.mjs's buildRig / buildIKs.
function build( scene ) {

	const bones = scene.bones.map( ( b, i ) => {

		const bone = new THREE.Bone();
		bone.name = b.name ?? `bone${i}`;
		if ( b.position ) bone.position.copy( v3( b.position ) );
		if ( b.quaternion ) bone.quaternion.set( ...b.quaternion );
		if ( b.scale ) bone.scale.copy( v3( b.scale ) );
		return bone;

	} );
	const mesh = new THREE.SkinnedMesh( new THREE.BufferGeometry(), new THREE.MeshBasicMaterial() );
	if ( scene.mesh?.position ) mesh.position.copy( v3( scene.mesh.position ) );
	if ( scene.mesh?.quaternion ) mesh.quaternion.set( ...scene.mesh.quaternion );
	if ( scene.mesh?.scale ) mesh.scale.copy( v3( scene.mesh.scale ) );
	scene.bones.forEach( ( b, i ) => {

		const p = b.parent ?? - 1;
		( p === - 1 ? mesh : bones[ p ] ).add( bones[ i ] );

	} );
	const iks = ( scene.iks ?? [] ).map( ( ik ) => {

		if ( ik.targetPosition ) bones[ ik.target ].position.copy( v3( ik.targetPosition ) );
		const out = { target: ik.target, effector: ik.effector, links: [] };
		for ( const k of [ 'iteration', 'minAngle', 'maxAngle', 'blendFactor' ] ) if ( ik[ k ] !== undefined ) out[ k ] = ik[ k ];
		for ( const l of ik.links ?? [] ) {

			const link = { index: l.index };
			if ( l.limitation ) link.limitation = v3( l.limitation );
			if ( l.rotationMin ) link.rotationMin = v3( l.rotationMin );
			if ( l.rotationMax ) link.rotationMax = v3( l.rotationMax );
			if ( l.enabled !== undefined ) link.enabled = l.enabled;
			out.links.push( link );

		}

		return out;

	} );
	mesh.updateMatrixWorld( true );
	mesh.bind( new THREE.Skeleton( bones ) );
	mesh.updateMatrixWorld( true );
	return { mesh, bones, solver: new CCDIKSolver( mesh, iks ) };

}

function bench( scene ) {

	const { bones, solver } = build( scene );
	const restore = solver.iks.flatMap( ( ik ) => ik.links.map( ( l ) => [ bones[ l.index ], bones[ l.index ].quaternion.clone() ] ) );
	const tops = solver.iks.filter( ( ik ) => ik.links.length > 0 ).map( ( ik ) => bones[ ik.links[ ik.links.length - 1 ].index ] );
	const blend = scene.globalBlendFactor ?? 1.0;
	const frame = () => {

		for ( let i = 0; i < restore.length; i ++ ) restore[ i ][ 0 ].quaternion.copy( restore[ i ][ 1 ] );
		for ( let i = 0; i < tops.length; i ++ ) tops[ i ].updateMatrixWorld( true );
		solver.update( blend );

	};

	const now = () => process.hrtime.bigint();
	// Warm-up (lets V8 optimise) and calibration: iterations per ~10 ms batch.
	let n = 0;
	const t0 = now();
	while ( now() - t0 < 500_000_000n ) {

		frame();
		n ++;

	}

	const perBatch = Math.max( 1, Math.round( n / 50 ) );
	const samples = [];
	for ( let b = 0; b < 41; b ++ ) {

		const s = now();
		for ( let i = 0; i < perBatch; i ++ ) frame();
		samples.push( Number( now() - s ) / perBatch );

	}

	samples.sort( ( a, b ) => a - b );
	return { median_ns: samples[ samples.length >> 1 ], batches: samples.length, iters_per_batch: perBatch };

}

const files = readdirSync( fixtures ).filter( ( f ) => f.endsWith( '.json' ) && ! f.endsWith( '.expected.json' ) && f.includes( filter ) ).sort();
for ( const f of files ) {

	const scene = JSON.parse( readFileSync( join( fixtures, f ), 'utf8' ) );
	const r = bench( scene );
	console.log( JSON.stringify( { scene: f.replace( /\.json$/, '' ), ...r } ) );

}
