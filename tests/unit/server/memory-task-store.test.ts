import { MemoryTaskStore } from '../../../src/server/memory-task-store.ts';
import { taskStoreContract } from './task-store-contract.ts';

taskStoreContract('MemoryTaskStore', () => new MemoryTaskStore());
