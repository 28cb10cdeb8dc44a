/** Invented people: given names by gender and family names, combined at random by the seeder. */
import { words } from './word-lists.js';

// A line of each list holds the names of one initial.

export const FEMALE_FIRST_NAMES = words(`
  Abigail Ada Alice Amara Anna
  Beatrice Bianca
  Camila Carla Chloe Clara
  Daphne Delia
  Elena Eliza Elsa Emma Esther
  Fatima Freya
  Gemma Grace
  Hana Harriet Helena
  Imogen Ines Iris Isla
  Jade Johanna Julia June
  Keira
  Lara Leah Lena Lila Lucia Lydia
  Mabel Maja Marta Maya Mila
  Nadia Naomi Nina Nora
  Olive
  Paula Priya
  Quinn
  Rosa Ruth
  Sara Selma Sofia
  Talia Thea
  Una
  Vera Viola
  Wren
  Yara
  Zoe
`);

export const MALE_FIRST_NAMES = words(`
  Aaron Adrian Alec Amir Anton Arlo Arthur
  Ben Bruno
  Caleb Casper Cyrus
  Daniel Dario Declan
  Eli Emil Ezra
  Felix Finn
  Gabriel
  Hugo
  Ian Idris Isaac Ivan
  Jasper Jonah Jules
  Kai Karl
  Lars Leo Luca
  Marco Mateo Milo
  Nico Noah
  Oscar Otto Owen
  Pablo
  Quentin
  Rafael Ravi Rowan
  Samir Silas Simon Soren
  Teo Theo Tobias
  Umar
  Victor
  Wes
  Xavier
  Yusuf
  Zane
`);

export const LAST_NAMES = words(`
  Abbott Achterberg Albright Alder Amsel Arden Ashby Aske
  Bancroft Barlow Beckett Bellamy Bergstrom Blackwood Brandt Brightwater
  Calder Carvell Castell Cho Cordova Crane
  Dahl Darrow Delacroix Draper
  Eastwick Ellery Espinal
  Farrow Fenwick Ferreira Finch
  Galloway Garnier Greaves
  Hadley Halvorsen Hartley Hayashi Holloway
  Ibarra Ingram Ishikawa
  Jansen Jessop
  Kaplan Keane Kessler Kowal
  Lachance Lambert Larkin Lindqvist Lowell
  Madsen Marchetti Mercer Moreau
  Nakamura Navarro Nightingale Novak
  Oakley Okafor Olsen Ortega
  Pasternak Pemberton Petrova
  Quill
  Radcliffe Ramsey Rasmussen Redfern Rinaldi Rowntree
  Sandoval Sato Schreiber Sinclair Stroud Sutter
  Tamura Thornbury Toller
  Underhill
  Valdez Vance Varga Voss
  Wakefield Waverly Whitlock Winslow Wexley
  Yilmaz Yoder
  Zeller Zimmer
`);
