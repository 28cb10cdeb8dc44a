import { GraphError } from '../errors.js';

/**
 * How many edge items one request may read in all. Each level of nesting multiplies the items
 * (25 friends, 25 posts each, 25 likes each…), so a short `fields` expression could otherwise
 * ask for millions; past the budget the request stops with a (#100) error instead.
 */
export class ItemBudget {
  private spent = 0;

  constructor(readonly limit: number) {}

  spend(items: number): void {
    this.spent += items;
    if (this.spent > this.limit) {
      throw GraphError.invalidParameter(
        `This request reads more than ${this.limit} items across its edges; ask for fewer with smaller limits or less nesting`,
      );
    }
  }
}
