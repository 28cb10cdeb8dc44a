import { openLocation, scratchLocation, testStoreKind } from '../helpers/test-store.js';
import { describeStoreContract } from './store-contract.js';

// One scratch database for the file: the contract never assumes an empty store.
const location = scratchLocation();
describeStoreContract(testStoreKind === 'postgres' ? 'PostgreSQL' : 'SQLite', () => openLocation(location));
