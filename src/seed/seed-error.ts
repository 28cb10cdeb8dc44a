/**
 * A graph that could not be put into a store, for a reason the user can act on: a graph file cut
 * short or not written by `loom export`, a seed another process began and left. The command line
 * shows it as a mistake in what it was given.
 */
export class SeedError extends Error {}
