/** WCAG 2.2 AA in the browser (phone): see ./accessibility.ts. */
import { accessibilitySuite } from './accessibility';

accessibilitySuite('phone');
