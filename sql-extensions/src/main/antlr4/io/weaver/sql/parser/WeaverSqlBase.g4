/*
 * Weaver's SQL statements (docs/table-contract.md, "SQL statements"). Only statements that start
 * with one of the "<VERB> WEAVER" pairs reach this grammar; everything else goes to Spark's (and
 * Delta's) parser.
 * Spark expressions and identifiers are never parsed here.
 */
grammar WeaverSqlBase;

// Keywords are case-insensitive; string literals and quoted identifiers keep their case.
options { caseInsensitive = true; }

singleStatement
    : statement ';'* EOF
    ;

statement
    : CHECK WEAVER (WORKSPACE workspace=stringLit)?                          #checkWeaver
    | BUILD WEAVER scope? (ALLOW DESTRUCTIVE)?                                #buildWeaver
    | LOAD WEAVER TABLE identity waiveGates?                                  #loadWeaverTable
    | LOAD WEAVER ITEM item=identifier waiveGates?                            #loadWeaverItem
    | TEST WEAVER scope?                                                      #testWeaver
    | SHOW WEAVER TABLES (IN item=identifier)?                                #showWeaverTables
    | DESCRIBE WEAVER TABLE identity                                          #describeWeaverTable
    | SHOW WEAVER LOADS (FOR identity)? (LIMIT limit=INTEGER_VALUE)?          #showWeaverLoads
    | RESTORE WEAVER TABLE identity TO LOAD loadId=stringLit                  #restoreWeaverTable
    ;

scope
    : ITEM item=identifier                                                    #itemScope
    | TABLE identity                                                          #tableScope
    ;

waiveGates
    : WAIVE STABILITY GATES
    ;

// Schema.Object or Item.Schema.Object; the builder checks the number of parts.
identity
    : parts+=identifier ('.' parts+=identifier)*
    ;

identifier
    : IDENTIFIER                                                              #plainIdentifier
    | BACKQUOTED_IDENTIFIER                                                   #quotedIdentifier
    | nonReserved                                                             #keywordIdentifier
    ;

stringLit
    : STRING
    ;

// Every keyword may also name an item, schema or object.
nonReserved
    : ALLOW | BUILD | CHECK | DESCRIBE | DESTRUCTIVE | FOR | GATES | IN | ITEM | LIMIT | LOAD
    | LOADS | RESTORE | SHOW | STABILITY | TABLE | TABLES | TEST | TO | WAIVE | WEAVER | WORKSPACE
    ;

ALLOW: 'ALLOW';
BUILD: 'BUILD';
CHECK: 'CHECK';
DESCRIBE: 'DESCRIBE';
DESTRUCTIVE: 'DESTRUCTIVE';
FOR: 'FOR';
GATES: 'GATES';
IN: 'IN';
ITEM: 'ITEM';
LIMIT: 'LIMIT';
LOAD: 'LOAD';
LOADS: 'LOADS';
RESTORE: 'RESTORE';
SHOW: 'SHOW';
STABILITY: 'STABILITY';
TABLE: 'TABLE';
TABLES: 'TABLES';
TEST: 'TEST';
TO: 'TO';
WAIVE: 'WAIVE';
WEAVER: 'WEAVER';
WORKSPACE: 'WORKSPACE';

// Quotes are escaped by doubling them; backslashes are literal so Windows paths need no escaping.
STRING
    : '\'' ( ~'\'' | '\'\'' )* '\''
    | '"' ( ~'"' | '""' )* '"'
    ;

INTEGER_VALUE
    : DIGIT+
    ;

IDENTIFIER
    : (LETTER | DIGIT | '_')+
    ;

BACKQUOTED_IDENTIFIER
    : '`' ( ~'`' | '``' )* '`'
    ;

fragment DIGIT: [0-9];
fragment LETTER: [A-Z] | [\p{L}];

SIMPLE_COMMENT: '--' ~[\r\n]* -> channel(HIDDEN);
BRACKETED_COMMENT: '/*' ( BRACKETED_COMMENT | . )*? '*/' -> channel(HIDDEN);
WS: [ \t\r\n\f]+ -> channel(HIDDEN);

// Anything else becomes a token the parser reports with its position, so the lexer never fails.
UNRECOGNIZED: .;
