// The npm Graph API clients ship no type declarations; tests drive them as the plain JavaScript they are.
declare module 'fb';
declare module 'fbgraph';
