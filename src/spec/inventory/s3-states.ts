import { frameByDirection, toggleChangesNothingElse } from './expand.ts';
import { field, freedom, type InventorySection, requirement, rule, statement, value } from './types.ts';

const FRAME = ['is_in_secondary_collection', 'is_physical', 'is_digital', 'tags', 'the get-rid-of setting'];

export const states: InventorySection = {
  section: '§3',
  sentences: [
    requirement('030fdfd8', 'kept is the one state an agent can change', [
      statement('C3.3', 'the toggle changes one item only, and nothing beside it', [rule('no other item changes'), ...toggleChangesNothingElse()]),
    ]),
    requirement('10b32c77', 'the toggle with id and 0 or 1 sets is_kept to that value and leaves the flags, tags and get-rid-of as they were', [
      statement('C3.1', 'is_kept becomes the value sent, in both directions, and reads show it', [
        value('is_kept 0 sets 0'),
        value('is_kept 1 sets 1'),
        rule('sending the current value is no flip'),
        rule('a single read shows the new value at once'),
      ]),
      statement('C3.2', 'the named fields stay, in both directions', [
        field('is_in_secondary_collection'),
        field('is_physical'),
        field('is_digital'),
        field('tags'),
        field('the get-rid-of setting'),
        ...frameByDirection(FRAME),
      ]),
      statement('C3.4', 'every read shows the new value afterwards', [
        rule('list rows show the new value'),
        rule('the kept filter follows the new value'),
        rule('single reads show the new value'),
        rule('upcoming interactions follow the new value'),
        rule('the proposals default coverage follows the new value'),
      ]),
    ]),
    requirement('6b1268d2', 'the three independent flags cannot be changed through this interface', [
      statement('C1.5', 'the toggle leaves each flag alone', [
        field('is_in_secondary_collection untouched by the toggle'),
        field('is_physical untouched by the toggle'),
        field('is_digital untouched by the toggle'),
      ]),
      statement('C1.3', 'no other request writes them', [rule('a refused write changes nothing')]),
    ]),
    freedom('c551f5d2', 'other lifecycle states of items and proposals are open', 'C3.5'),
    requirement('230022c5', 'an unsuccessful proposal is no use and does not reset the last-use clock', [
      statement('C3.6', 'proposals count neither as plays nor as a last use', [
        rule('an unsuccessful proposal is not counted as a use'),
        rule('a proposal does not move last_use'),
        rule('a proposal does not move an interact-by date'),
      ]),
    ]),
    requirement('7723c4fd', 'a use does reset it', [
      statement('C1.6', 'a later use moves the clock', [rule('the latest use sets last_use, not the earliest')]),
    ]),
  ],
};
