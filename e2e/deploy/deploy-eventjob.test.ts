/** `make deploy` of examples/eventjob on the local cluster (e2e/deploy/deploy-proof.ts): the EventJob sample is reconciled by the in-cluster manager (its log names it). */
import { proveDeploy } from './deploy-proof.js';

proveDeploy('eventjob');
