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
    | PLAN WEAVER scope? (ALLOW DESTRUCTIVE)? waiveGates?                     #planWeaver
    | LOAD WEAVER TABLE identity inRun? waiveGates?                           #loadWeaverTable
    | LOAD WEAVER TABLE identity clientInput
        (BOOKMARK bookmark=stringLit)? (CONTEXT context=stringLit)? inRun? waiveGates?
                                                                              #loadWeaverTableFrom
    | LOAD WEAVER ITEM item=identifier waiveGates?                            #loadWeaverItem
    | TEST WEAVER scope?                                                      #testWeaver
    | SHOW WEAVER TABLES (IN item=identifier)?                                #showWeaverTables
    | DESCRIBE WEAVER TABLE identity                                          #describeWeaverTable
    | DESCRIBE WEAVER LOAD TABLE identity inRun?                              #describeWeaverLoad
    | SHOW WEAVER LOAD PLAN scope? (OPEN RUN)?                                #showWeaverLoadPlan
    | SHOW WEAVER LOADS (FOR identity)? (LIMIT limit=INTEGER_VALUE)?          #showWeaverLoads
    | RESTORE WEAVER TABLE identity TO LOAD loadId=stringLit                  #restoreWeaverTable
    | PUBLISH WEAVER ITEM item=identifier                                     #publishWeaverItem
    | PUBLISH WEAVER RUN run=stringLit                                        #publishWeaverRun
    | SHOW WEAVER PUBLISHES FOR item=identifier (LIMIT limit=INTEGER_VALUE)?  #showWeaverPublishes
    | RESTORE WEAVER ITEM item=identifier TO PUBLISH publishId=stringLit      #restoreWeaverItem
    ;

scope
    : ITEM item=identifier                                                    #itemScope
    | TABLE identity                                                          #tableScope
    ;

waiveGates
    : WAIVE STABILITY GATES
    ;

// The load run (SHOW WEAVER LOAD PLAN … OPEN RUN) a statement is a step of.
inRun
    : IN RUN run=stringLit
    ;

// What a client's run of a Python Table's read() produced: temporary views of this session, no
// work, or the error that stopped read().
clientInput
    : FROM VIEW staging=identifier (DELETE KEYS FROM VIEW deleteKeys=identifier)? #fromViews
    | DELETE KEYS FROM VIEW deleteKeys=identifier                              #deleteKeysOnly
    | WITH NO WORK                                                             #noWork
    | FAILED message=stringLit                                                 #readFailed
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
    : ALLOW | BOOKMARK | BUILD | CHECK | CONTEXT | DELETE | DESCRIBE | DESTRUCTIVE | FAILED | FOR
    | FROM | GATES | IN | ITEM | KEYS | LIMIT | LOAD | LOADS | NO | OPEN | PLAN | PUBLISH | PUBLISHES
    | RESTORE | RUN | SHOW
    | STABILITY | TABLE | TABLES | TEST | TO | VIEW | WAIVE | WEAVER | WITH | WORK | WORKSPACE
    ;

ALLOW: 'ALLOW';
BOOKMARK: 'BOOKMARK';
BUILD: 'BUILD';
CHECK: 'CHECK';
CONTEXT: 'CONTEXT';
DELETE: 'DELETE';
DESCRIBE: 'DESCRIBE';
DESTRUCTIVE: 'DESTRUCTIVE';
FAILED: 'FAILED';
FOR: 'FOR';
FROM: 'FROM';
GATES: 'GATES';
IN: 'IN';
ITEM: 'ITEM';
KEYS: 'KEYS';
LIMIT: 'LIMIT';
LOAD: 'LOAD';
LOADS: 'LOADS';
NO: 'NO';
OPEN: 'OPEN';
PLAN: 'PLAN';
PUBLISH: 'PUBLISH';
PUBLISHES: 'PUBLISHES';
RESTORE: 'RESTORE';
RUN: 'RUN';
SHOW: 'SHOW';
STABILITY: 'STABILITY';
TABLE: 'TABLE';
TABLES: 'TABLES';
TEST: 'TEST';
TO: 'TO';
VIEW: 'VIEW';
WAIVE: 'WAIVE';
WEAVER: 'WEAVER';
WITH: 'WITH';
WORK: 'WORK';
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
