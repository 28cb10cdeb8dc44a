/**
 * A topic places are filed under (Restaurant, Museum…), in a tree: a topic names its parents.
 * Found with `GET /search?type=placetopic`.
 */
import type { NodeTypeDef } from '../definition.js';

export const placetopicType: NodeTypeDef = {
  name: 'placetopic',
  label: 'PlaceTopic',
  idForm: 'plain',
  visibility: 'public',
  defaultFields: ['name'],
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The topic's id." },
    { name: 'name', type: 'string',
      description: 'The name of the topic, such as Coffee Shop.' },
    { name: 'plural_name', type: 'string',
      description: 'The name of the topic for many places, such as Coffee Shops.' },
    { name: 'parent_ids', type: 'list<numeric string>',
      description: 'The ids of the broader topics this one belongs to.' },
    { name: 'top_subtopic_names', type: 'list<string>',
      description: 'The names of the most common narrower topics.' },
    { name: 'icon_url', type: 'string',
      description: 'Address of an icon of the topic.' },
  ],
  edges: [],
  search: { as: [{ type: 'placetopic' }], fields: ['name', 'plural_name'] },
};
