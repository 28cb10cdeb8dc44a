/**
 * The scalar types every room speaks, kept in a leaf of their own so that passing an id or a JSON
 * object from one room to another ties neither to the room that defined it.
 */

/** An object's internal id, as the store hands it out; the Graph ids of the API are made from it. */
export type ObjectId = number;

/** A JSON object: a node of an answer, or what a client sent. */
export type Json = Record<string, unknown>;
