/**
 * The cook's words the analysis knows, as folded singular keys (words.ts): what a line says about the
 * food's preparation, its state and its size, the noise around the food's name, and the few places where
 * cooks and SR28 name a food differently. docs/analysis.md lists them and says why each list exists.
 */

/**
 * Preparation a line may name ("1 cup chopped onion", "2 cups cheddar, shredded"): not part of the food's
 * name. Each picks a volume portion by the words its description may say, best first (decisions §16:
 * "diced" takes a "chopped" portion when the food has no "diced" one).
 */
export const PREPARATIONS: Readonly<Record<string, readonly string[]>> = {
  chopped: ["chopped", "diced"],
  diced: ["diced", "chopped"],
  minced: ["minced", "chopped"],
  cubed: ["cubed", "cube", "diced", "chopped"],
  sliced: ["sliced", "slice"],
  slivered: ["slivered", "sliced", "slice"],
  shredded: ["shredded", "grated"],
  grated: ["grated", "shredded"],
  mashed: ["mashed"],
  pureed: ["pureed"],
  whipped: ["whipped"],
  melted: ["melted"],
  sifted: ["sifted"],
  packed: ["packed"],
  crushed: ["crushed"],
  crumbled: ["crumbled"],
  halved: ["halve", "halved"],
  quartered: ["quartered"],
  ground: ["ground"],
  whole: ["whole"],
  flaked: ["flaked", "flake"],
};

/**
 * Words of a portion's description that say how the food was cut or measured: "1 cup heavy cream" takes
 * "cup, fluid", which names none, before "cup, whipped".
 */
export const DESCRIPTION_PREPARATIONS: ReadonlySet<string> = new Set([
  ...Object.values(PREPARATIONS).flat(),
  "unpacked", "unsifted", "piece", "strip", "ring", "halve", "slice", "wedge", "spooned", "stirred", "dipped", "leveled", "section", "ball", "julienne",
  "brownulated", "shell",
]);

/**
 * States a line may name that the food's name must then have (decisions §16), with the words of SR28 names
 * that say the same. "ground" is also met by any food of the spices group, whose powders SR28 names without
 * it ("Spices, pepper, black": its portions are "tsp, ground").
 */
export const STATES: Readonly<Record<string, readonly string[]>> = {
  cooked: ["cooked"],
  boiled: ["boiled"],
  canned: ["canned"],
  frozen: ["frozen"],
  dried: ["dried", "dry", "dehydrated"],
  ground: ["ground"],
};
export const SPICES_GROUP = "0200";
/** SR28's legumes, whose raw mature seeds are the dried pulses a cook buys ("dried red lentils"). */
export const LEGUMES_GROUP = "1600";
/**
 * The word Indian and British recipes give a ground spice ("cumin powder", "mustard powder"): where no
 * SR28 name has it with the line's other words, it means the state "ground" (match.ts).
 */
export const POWDER_OF_SPICE = "powder";

/**
 * Words of a line that are not the food's name: how it is prepared, measured or served, and filler. They are
 * dropped before matching (their preparation meaning is read first).
 */
export const NOISE: ReadonlySet<string> = new Set([
  // preparation and handling
  "chopped", "diced", "minced", "cubed", "sliced", "slivered", "shredded", "grated", "mashed", "pureed", "whipped", "melted", "sifted",
  "packed", "crushed", "crumbled", "halved", "quartered", "flaked", "peeled", "seeded", "deseeded", "cored", "pitted", "trimmed", "rinsed",
  "drained", "washed", "beaten", "lightly", "well", "softened", "thawed", "cut", "into", "inch", "thick", "thin", "thinly", "finely",
  "coarsely", "roughly", "freshly", "fresh", "torn", "julienned", "zested", "juiced", "squeezed", "stemmed", "hulled", "shelled",
  "deveined", "divided", "separated", "room", "temperature", "cold", "warm", "chilled", "lukewarm", "pieces", "piece", "bite", "sized",
  "size", "chunk", "chunks", "cube", "cubes", "strip", "ring", "wedge", "half", "halve", "quarter", "optional", "garnish", "serving",
  "taste", "needed", "desired", "plus", "more", "extra", "about", "approximately", "heaping", "level", "scant", "generous", "good",
  "quality", "homemade", "store", "bought", "organic", "natural", "pure", "prepared", "sprinkling", "dusting", "loosely", "firmly",
  "tightly", "removed", "discarded", "reserved", "if", "or", "to", "for", "of", "the", "a", "an", "and", "at", "in", "on", "with", "your",
  "such", "as", "like", "any", "some", "few", "little", "each", "other", "additional", "total", "about", "roughly", "very", "small", "medium",
  "large", "jumbo", "big", "thawed", "defrosted", "undrained", "boneless", "skinless", "skin", "bone", "patted", "dry", "kosher",
  "coarse", "fine", "flat", "flaky", "firm", "ripe", "overripe", "cooled", "boiling", "uncooked", "raw", "ice", "cube",
]);

/**
 * Line words that narrow the food but may be absent from an acceptable SR28 name: "yellow onion" is
 * "Onions, raw", "extra-virgin olive oil" "Oil, olive, salad or cooking". A word of the line that is
 * neither noise nor one of these must be in the food's name.
 */
export const SOFT_WORDS: ReadonlySet<string> = new Set([
  "yellow", "white", "red", "green", "black", "brown", "golden", "purple", "orange", "baby", "young", "virgin", "italian", "english",
  "spanish", "mexican", "leaf", "sea", "table", "sweet", "mild", "sharp", "aged", "light", "dark", "regular", "plain", "pure", "lean",
  "unsalted", "salted", "sweetened", "unsweetened", "granulated", "superfine", "caster", "active", "instant", "quick", "old",
  "fashioned", "rolled", "long", "grain", "short", "wild", "clear", "low", "sodium", "fat", "reduced", "free", "whole", "part", "skim",
  "flat", "curly", "seedless", "heavy", "firm", "soft", "smooth", "creamy", "chunky", "crunchy", "toasted", "roasted", "unbleached",
  "bleached", "enriched", "fat-free", "nonfat", "lowfat", "2", "1", "percent", "vine", "heirloom", "roma", "plum", "cherry", "grape",
  "hass", "florida", "california", "idaho", "russet", "vidalia", "spring", "summer", "winter", "new", "dijon", "kernel", "stone", "hot", "crumb", "jack",
  "smoked",
]);

/**
 * Words of SR28 names that mark the plain, unprocessed form: a name that adds only these to the line's
 * words is the food a cook means ("sugar" is "Sugars, granulated"; "onion" "Onions, raw").
 */
export const PLAIN_NAME_WORDS: ReadonlySet<string> = new Set([
  "raw", "fresh", "plain", "regular", "granulated", "table", "all", "purpose", "commercial", "variety", "year", "round", "average",
  "includes", "include", "tops", "bulb", "salted", "salad", "cooking", "whole", "white", "fluid", "unprepared", "enriched", "bleached",
  "unenriched", "mature", "seed", "flesh", "without", "and", "or", "ns", "as", "to", "not", "of", "the", "in", "from",
  "made", "edible", "portion", "meat", "only", "lean", "trimmed", "fat", "separable", "1", "8", "inch", "0", "choice", "select",
  "grade", "baker", "active", "extract", "domestic", "unheated", "distilled",
]);

/** Words SR28 heads a name with to say what kind of food follows ("Spices, cumin seed", "Fish, salmon, Atlantic"). */
export const CATEGORY_WORDS: ReadonlySet<string> = new Set([
  "spice", "nut", "seed", "fish", "crustacean", "mollusk", "leavening", "agent", "alcoholic", "beverage", "cereal", "game", "meat",
  "vegetable", "fruit", "syrup", "grain", "soup", "sauce", "pepper", "cheese",
]);

/**
 * Words of SR28 names that mark a processed or prepared form: a name with one the line does not say comes
 * after the plain form ("onion" is never "Onion rings, breaded").
 */
export const PROCESSED_NAME_WORDS: ReadonlySet<string> = new Set([
  "cooked", "boiled", "canned", "frozen", "dried", "dehydrated", "fried", "breaded", "battered", "roasted", "baked", "braised",
  "stewed", "steamed", "microwaved", "grilled", "broiled", "toasted", "prepared", "heated", "reconstituted", "drained", "pickled",
  "sweetened", "syrup", "mix", "powder", "soup", "sauce", "juice", "dressing", "spread", "imitation", "substitute", "babyfood",
  "formula", "restaurant", "fast", "food", "snack", "candies", "candy", "chip", "flavored", "glazed", "stuffed", "creamed", "condensed",
  "evaporated", "instant", "ready", "serve", "eat", "par", "infant", "toddler", "junior", "strained", "beverage", "drink", "cocktail",
  "nectar", "bar", "cereal", "ring", "smoked", "cured", "salt", "low", "reduced", "lite", "light", "diet", "fat", "free", "added",
  "vitamin", "fortified", "protein", "isolate", "concentrate", "pack", "packed", "water", "heavy", "oil", "ground", "skin",
  "meatless", "vegetarian", "tofu", "soy", "nonfat", "lowfat", "skim", "sprouted", "blend", "imitation", "sauteed", "simmered",
  "poached", "scrambled", "caramelized", "marinated", "seasoned", "blanched", "rehydrated", "stir", "puree", "paste", "sweetener",
  // another product made of the food
  "flour", "meal", "butter", "milk",
]);

/**
 * Cook's names SR28 spells otherwise, as words of SR28 names (keys): `scallions` are "Onions, spring or
 * scallions", `ketchup` is "Catsup". Replaced wherever they occur among a line's food words, longest first.
 */
export const SYNONYMS: Readonly<Record<string, string>> = {
  "green onion": "onion spring scallion",
  "spring onion": "onion spring scallion",
  ketchup: "catsup",
  "confectioner sugar": "sugar powdered",
  "confectioners sugar": "sugar powdered",
  "icing sugar": "sugar powdered",
  "caster sugar": "sugar granulated",
  "white sugar": "sugar granulated",
  "bell pepper": "pepper sweet",
  "red pepper flake": "pepper red cayenne",
  cayenne: "pepper red cayenne",
  "cayenne pepper": "pepper red cayenne",
  garbanzo: "chickpea",
  "garbanzo bean": "chickpea",
  breadcrumb: "bread crumb",
  panko: "bread crumb",
  floret: "",
  cornflour: "cornstarch",
  "corn starch": "cornstarch",
  unsalted: "without -salt",
  courgette: "zucchini",
  aubergine: "eggplant",
  prawn: "shrimp",
  "bicarbonate of soda": "baking soda",
  mayo: "mayonnaise",
  "double cream": "heavy cream",
  "single cream": "cream light",
  "coriander leaf": "cilantro",
  "chocolate chip": "semisweet chocolate",
  "semi sweet": "semisweet",
  lemongrass: "lemon grass",
  "lasagna noodle": "pasta",
  "semisweet chocolate chip": "semisweet chocolate",
  "half and half": "half and half",
  "apple cider vinegar": "cider vinegar",
  zest: "peel",
  mint: "spearmint",
  "monterey jack": "monterey",
  "whipped cream": "cream whipped topping pressurized",
  // British and international kitchens' names (decisions §16's "plain flour", "beef mince", "courgette").
  "self raising": "self rising",
  wholemeal: "whole wheat",
  "wholemeal flour": "wheat flour whole grain",
  "demerara sugar": "sugar brown",
  "muscovado sugar": "sugar brown",
  "beef mince": "ground beef",
  "minced beef": "ground beef",
  "pork mince": "pork ground",
  "minced pork": "pork ground",
  "lamb mince": "lamb ground",
  "minced lamb": "lamb ground",
  "turkey mince": "turkey ground",
  "minced turkey": "turkey ground",
  "chicken mince": "chicken ground",
  "minced chicken": "chicken ground",
  // Coriander is the leaf when it is fresh, chopped or by the leaf; by the spoon or ground, the seed.
  "fresh coriander": "cilantro",
  "chopped coriander": "cilantro",
  "coriander sprig": "cilantro",
  rocket: "arugula",
  "king prawn": "shrimp",
  "tiger prawn": "shrimp",
  ghee: "butter oil anhydrous",
  "clarified butter": "butter oil anhydrous",
  capsicum: "pepper sweet",
  yoghurt: "yogurt",
  "natural yogurt": "plain yogurt",
  "natural yoghurt": "plain yogurt",
  "skimmed milk": "skim milk",
  "semi skimmed milk": "reduced fat milk",
  "full fat milk": "whole milk",
  "chili flake": "pepper red cayenne",
  sultana: "raisin golden",
  sweetcorn: "corn",
  "rapeseed oil": "canola oil",
  groundnut: "peanut",
  swede: "rutabaga",
  beetroot: "beet",
  mangetout: "pea edible podded",
  "snow pea": "pea edible podded",
  "sugar snap pea": "pea edible podded",
  "broad bean": "broadbean",
  "chestnut mushroom": "crimini mushroom",
  cremini: "crimini",
  treacle: "molasses",
  "streaky bacon": "bacon",
  "vegetable stock": "vegetable broth",
  "dry mustard": "mustard seed ground",
  "milk powder": "milk dry",
  "salt flake": "salt",
  "vanilla essence": "vanilla extract",
  // Almonds ground to a meal: SR28 weighs them as the nuts.
  "ground almond": "almond",
  "free range": "",
  "fast action": "",
  "easy bake": "",
  "easy blend": "",
  "porridge oat": "oat",
  // Varieties of long-grain white rice, SR28's "rice" (default-foods.ts).
  basmati: "",
  jasmine: "",
  arborio: "medium grain",
  beansprout: "mung bean sprouted",
  "bean sprout": "mung bean sprouted",
  passata: "tomato puree",
  "pomegranate seed": "pomegranate",
  "pomegranate aril": "pomegranate",
  "neutral oil": "vegetable oil",
  "powdered milk": "milk dry",
};

/**
 * Names whose accent tells one kitchen's food from another's, matched in a line's own spelling before it is
 * folded: the British "tomato purée" is the concentrate SR28 calls paste; the American "tomato puree" is
 * SR28's thinner puree.
 */
export const ACCENTED_NAMES: Readonly<Record<string, string>> = {
  "tomato purée": "tomato paste",
};
